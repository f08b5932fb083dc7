import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { initTheme } from './theme';
import './styles.css';

initTheme();
const root = createRoot(document.getElementById('root')!);
// As a transition, the first render yields to the browser every few milliseconds instead of
// holding the main thread for the whole page at once.
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
