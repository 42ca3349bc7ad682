// Runs first: adds the connect-src policy before any app code can fetch anything. The
// page may connect to its own origin, and to the origin of ?url= when one is given.
import { connectPolicy } from './model/csp.js';

const meta = document.createElement('meta');
meta.httpEquiv = 'Content-Security-Policy';
meta.content = connectPolicy(location.href);
document.head.prepend(meta);

import('./main.jsx');
