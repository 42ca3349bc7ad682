import { h } from 'preact';
import { MmuView } from './MmuView.jsx';
import '../common/views.css';

export const routes = [
  { path: '/mmu', view: ({ trace, query }) => h(MmuView, { trace, query: new URLSearchParams(query) }), tab: { label: 'MMU', order: 70 } },
];
