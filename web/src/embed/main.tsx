// The embed's entry (embed.html): reads the setup from the URL, sets the theme before the first
// paint, and starts listening for the host page's messages before React renders, so none is lost.

import { StrictMode } from 'react';
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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Embed initial={initial} bridge={bridge} />
  </StrictMode>,
);
