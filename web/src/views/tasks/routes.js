import { h } from 'preact';
import { TasksView, RegionsView } from './TasksView.jsx';
import { TaskView } from './TaskView.jsx';
import '../common/views.css';

export const routes = [
  { path: '/tasks', view: ({ trace, query }) => h(TasksView, { trace, name: query.name }), tab: { label: 'Tasks', order: 40 } },
  { path: '/task/:id', view: ({ trace, params }) => h(TaskView, { trace, id: Number(params.id) }), tabPath: '/tasks' },
  { path: '/regions', view: ({ trace, query }) => h(RegionsView, { trace, name: query.name }), tab: { label: 'Regions', order: 50 } },
];
