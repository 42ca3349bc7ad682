import { h } from 'preact';
import { CompareView } from './CompareView.jsx';
import '../common/views.css';
import './compare.css';

export const routes = [
  { path: '/compare', view: ({ trace, info }) => h(CompareView, { trace, info }), tab: { label: 'Compare', order: 80 } },
];
