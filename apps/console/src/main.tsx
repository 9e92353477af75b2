import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './app/global.css';
import { initI18n } from './i18n/i18n';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

void initI18n().then(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
