import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { resolveBridge } from './bridge';
import { routeHashOf } from './routes';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The browser shell's address may carry a route next to its token ("#/display&token=…"); reading
// the token clears the hash, so put the route back.
const startRoute = routeHashOf(window.location.hash);
const bridge = resolveBridge();
if (startRoute && window.location.hash !== startRoute) {
  window.history.replaceState(null, '', startRoute);
}

createRoot(root).render(
  <StrictMode>
    <App bridge={bridge} />
  </StrictMode>,
);
