import { h } from 'preact';
import { TasksView, RegionsView } from './TasksView.jsx';
import { TaskView } from './TaskView.jsx';
import '../common/views.css';

export const routes = [
  { path: '/tasks', view: ({ trace, query, info, route }) => h(TasksView, { trace, name: query.name, info, query, route }), tab: { label: 'Tasks', order: 40 } },
  { path: '/task/:id', view: ({ trace, params, info, openPart }) => h(TaskView, { trace, id: Number(params.id), info, openPart }), tabPath: '/tasks' },
  { path: '/regions', view: ({ trace, query, info, route }) => h(RegionsView, { trace, name: query.name, info, query, route }), tab: { label: 'Regions', order: 50 } },
];
