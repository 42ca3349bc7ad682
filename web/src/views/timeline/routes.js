import { Timeline } from './Timeline.jsx';

export const routes = [{ path: '/timeline', view: Timeline, tab: { label: 'Timeline', order: 20 } }];
