import 'antd-mobile/es/global';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { markDesktop } from './app/desktop';
import { startFirstScreen } from './app/firstScreen';
import { appHistory } from './app/router';
import { setupApp } from './app/setup';
import { initI18n } from './i18n';
import './base.css';
import './app/desktop.css';

markDesktop();
setupApp((path) => appHistory.push(path));
startFirstScreen();

const root = document.getElementById('root');
if (root) {
  void initI18n().then(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
