import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './app/field.css';
import { initI18n } from './i18n/i18n';
import { registerServiceWorker } from './app/registerServiceWorker';
import { FieldSession } from './session/fieldSession';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

const session = new FieldSession();
session.start();

void initI18n().then(() => {
  createRoot(root).render(
    <StrictMode>
      <App session={session} />
    </StrictMode>,
  );
});
registerServiceWorker();
