import { h } from 'preact';
import { CriticalPathView } from './CriticalPathView.jsx';
import '../goroutines/views.css';
import './paths.css';

export const routes = [
  { path: '/critical-path', view: ({ trace, query }) => h(CriticalPathView, { client: trace, query }), tabPath: '/tasks' },
];
