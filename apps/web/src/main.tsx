import 'antd-mobile/es/global';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { markDesktop } from './app/desktop';
import { startFirstScreen } from './app/firstScreen';
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
  // A transition: React renders the first screen in slices of a few milliseconds, yielding between them,
  // instead of one task that held a slow phone's main thread for a third of a second. For a screen of its
  // own chunk it also holds the frame back until the chunk is there: drawn at once, the frame's placeholder
  // made React wait 300 ms after it before showing the screen (its throttle on revealed content), and the
  // screen's largest paint came 135 ms later.
  void messages.then(() =>
    startTransition(() =>
      createRoot(root).render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    ),
  );
}
