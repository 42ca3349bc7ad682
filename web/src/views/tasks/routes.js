import { h } from 'preact';
import { TasksView, RegionsView } from './TasksView.jsx';
import { TaskView } from './TaskView.jsx';
import '../goroutines/views.css';

export const routes = [
  { path: '/tasks', view: ({ trace, query }) => h(TasksView, { client: trace, name: query.name }), tab: { label: 'Tasks', order: 40 } },
  { path: '/task/:id', view: ({ trace, params }) => h(TaskView, { client: trace, id: Number(params.id) }), tabPath: '/tasks' },
  { path: '/regions', view: ({ trace, query }) => h(RegionsView, { client: trace, name: query.name }), tab: { label: 'Regions', order: 50 } },
];
