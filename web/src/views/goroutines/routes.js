import { h } from 'preact';
import { GoroutinesView } from './GoroutinesView.jsx';
import { GroupView } from './GroupView.jsx';
import { GoroutineView } from './GoroutineView.jsx';
import '../common/views.css';

export const routes = [
  {
    path: '/goroutines',
    view: ({ trace, info, query, route }) => h(GoroutinesView, { trace, info, query, route }),
    tab: { label: 'Goroutines', order: 30 },
  },
  {
    path: '/goroutines/group/:name',
    view: ({ trace, params, info, query, route }) => h(GroupView, { trace, name: params.name, info, query, route }),
    tabPath: '/goroutines',
  },
  {
    // The group of goroutines never seen with a stack has no start function ("").
    path: '/goroutines/group',
    view: ({ trace, info, query, route }) => h(GroupView, { trace, name: '', info, query, route }),
    tabPath: '/goroutines',
  },
  {
    path: '/goroutine/:id',
    view: ({ trace, params, info, openPart }) => h(GoroutineView, { trace, id: Number(params.id), info, openPart }),
    tabPath: '/goroutines',
  },
];
