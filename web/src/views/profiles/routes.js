import { h } from 'preact';
import { ProfilesView } from './ProfilesView.jsx';
import '../common/views.css';

const view = ({ trace, params, query, info, route }) =>
  h(ProfilesView, { trace, type: params.type ?? 'sync', query: new URLSearchParams(query), info, route });

export const routes = [
  { path: '/profiles', view, tabPath: '/profiles/sync' },
  { path: '/profiles/:type', view, tab: { label: 'Profiles', order: 60, href: '/profiles/sync', prefix: '/profiles' } },
];
