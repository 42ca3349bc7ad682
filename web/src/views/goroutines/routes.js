import { h } from 'preact';
import { GoroutinesView } from './GoroutinesView.jsx';
import { GroupView } from './GroupView.jsx';
import { GoroutineView } from './GoroutineView.jsx';
import '../common/views.css';

export const routes = [
  {
    path: '/goroutines',
    view: ({ trace }) => h(GoroutinesView, { trace }),
    tab: { label: 'Goroutines', order: 30 },
  },
  {
    path: '/goroutines/group/:name',
    view: ({ trace, params }) => h(GroupView, { trace, name: params.name }),
    tabPath: '/goroutines',
  },
  {
    // The group of goroutines never seen with a stack has no start function ("").
    path: '/goroutines/group',
    view: ({ trace }) => h(GroupView, { trace, name: '' }),
    tabPath: '/goroutines',
  },
  {
    path: '/goroutine/:id',
    view: ({ trace, params }) => h(GoroutineView, { trace, id: Number(params.id) }),
    tabPath: '/goroutines',
  },
];
