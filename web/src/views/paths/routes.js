import { h } from 'preact';
import { CriticalPathView } from './CriticalPathView.jsx';
import '../common/views.css';
import './paths.css';

export const routes = [
  { path: '/critical-path', view: (props) => h(CriticalPathView, props), tabPath: '/tasks' },
];
