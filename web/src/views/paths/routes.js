import { h } from 'preact';
import { CriticalPathView } from './CriticalPathView.jsx';
import '../common/views.css';
import './paths.css';

export const routes = [
  // Under the tab of what the path is of: a goroutine's, a region's (or region type's), a task's.
  {
    path: '/critical-path',
    view: (props) => h(CriticalPathView, props),
    tabPath: (q) => (q.goroutine !== undefined ? '/goroutines' : q.region !== undefined || q.regionType !== undefined ? '/regions' : '/tasks'),
  },
];
