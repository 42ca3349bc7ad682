import { h } from 'preact';
import { MmuView } from './MmuView.jsx';
import '../common/views.css';

export const routes = [
  { path: '/mmu', view: ({ trace, query, info, route }) => h(MmuView, { trace, query: new URLSearchParams(query), info, route }), tab: { label: 'MMU', order: 70 } },
];
