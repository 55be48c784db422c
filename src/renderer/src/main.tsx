import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectCounter, startPage } from './bridge';
import { Root } from './root';
import { routeHashOf } from './routes';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The browser shell's address may carry a route next to its token ("#/display&token=…"); reading
// the token clears the hash, so put the route back (with a pairing link's code, which is no token).
const startRoute = routeHashOf(window.location.hash);
const start = startPage();
if (startRoute && window.location.hash !== startRoute) {
  window.history.replaceState(null, '', startRoute);
}

createRoot(root).render(
  <StrictMode>
    <Root start={start} connectCounter={connectCounter} />
  </StrictMode>,
);
