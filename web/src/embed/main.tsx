// The embed's entry (embed.html): reads the setup from the URL, sets the theme before the first
// paint, and starts listening for the host page's messages before React renders, so none is lost.

import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { initTheme, setThemeChoice } from '../theme';
import { HostBridge } from './bridge';
import { Embed } from './Embed';
import { parseEmbed } from './embedState';
import '../styles.css';
import './embed.css';

const initial = parseEmbed(window.location.search);
initTheme();
setThemeChoice(initial.setup.options.theme, false);
const bridge = new HostBridge(window, initial.setup.options.origins, initial.setup.options.id);

const root = createRoot(document.getElementById('root')!);
// As a transition the first render yields to the browser every few milliseconds: the host page
// keeps scrolling while a chart that just came into view renders.
startTransition(() => {
  root.render(
    <StrictMode>
      <Embed initial={initial} bridge={bridge} />
    </StrictMode>,
  );
});
