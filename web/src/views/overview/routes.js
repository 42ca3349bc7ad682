import { Overview } from './Overview.jsx';

export const routes = [{ path: '/overview', view: Overview, tab: { label: 'Overview', order: 10 } }];
