import 'antd-mobile/es/global';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { markDesktop } from './app/desktop';
import { firstScreenInEntry, startFirstScreen } from './app/firstScreen';
import { appHistory } from './app/router';
import { setupApp } from './app/setup';
import { initI18n } from './i18n';
import { prepareFormats } from './i18n/format';
import './base.css';
import './app/desktop.css';

markDesktop();
setupApp((path) => appHistory.push(path));
const messages = initI18n();
// A task later: the messages' import goes out first (a microtask), the first screen's chunks and calls after.
setTimeout(startFirstScreen);
// A task of its own, run while the first screen's data and messages download.
setTimeout(prepareFormats);

const root = document.getElementById('root');
if (root) {
  const render = () =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  // The quotes render in a transition: React renders them in slices of a few milliseconds, yielding between
  // them, instead of one task that held a slow phone's main thread for a third of a second. A screen of its
  // own chunk renders at once: its first render is the frame, the tab bar and the placeholder, which a
  // transition would hold back until the chunk had arrived.
  void messages.then(() => (firstScreenInEntry() ? startTransition(render) : render()));
}
