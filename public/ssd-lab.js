// <ssd-lab>: SSD Lab's live chart as one element, for an article that would rather not manage an
// iframe. It makes the iframe (embed.html beside this script), keeps it as tall as its content,
// sends it messages and hands its events on as DOM events. docs/EMBEDDING.md explains why it is
// offered and every attribute; the message protocol is the embed's (web/src/embed/messages.ts).
//
//   <script src="https://ssdlab.example/ssd-lab.js" defer></script>
//   <ssd-lab id="s3700" drive="s3700-200" span="0.8" autoplay="on" controls="locked"></ssd-lab>
//
// Every attribute is a URL parameter of the embed, except those below, which are the element's
// own; the element's id is the embed's id (echoed in its events), and the page's own origin is
// allowed to drive it. Attributes are read when the element is added to the page; change the
// setup afterwards with configure().

(() => {
  const PROTOCOL_VERSION = 1;
  /** Attributes that belong to the element, not to the embed's URL. */
  const OWN = new Set(['id', 'class', 'style', 'title', 'height', 'hidden', 'lang', 'dir', 'tabindex', 'slot', 'role']);
  const script = document.currentScript;
  const embedPage = new URL('embed.html', script ? script.src : document.baseURI);

  class SsdLab extends HTMLElement {
    constructor() {
      super();
      this.frame = null;
      this.ready = false;
      /** Messages sent before the embed said it is ready (a frame still loading drops them). */
      this.waiting = [];
      this.onMessage = (e) => this.receive(e);
    }

    connectedCallback() {
      if (this.frame) return;
      const src = new URL(embedPage);
      for (const { name, value } of Array.from(this.attributes)) {
        if (!OWN.has(name) && !name.startsWith('data-') && !name.startsWith('aria-')) src.searchParams.append(name, value);
      }
      if (this.id) src.searchParams.set('id', this.id);
      src.searchParams.append('origin', window.location.origin);
      const frame = document.createElement('iframe');
      frame.src = src.href;
      frame.title = this.getAttribute('title') || 'SSD Lab: a live SSD simulation';
      frame.loading = 'lazy';
      // content-box: the height events give the content's height, whatever borders a page adds.
      frame.style.cssText = `display:block;box-sizing:content-box;width:100%;border:0;height:${Number(this.getAttribute('height')) || 600}px`;
      this.frame = frame;
      window.addEventListener('message', this.onMessage);
      this.replaceChildren(frame);
    }

    disconnectedCallback() {
      window.removeEventListener('message', this.onMessage);
      this.frame = null;
      this.ready = false;
    }

    /** Sends a message of the protocol: send('seek', { second: 600 }). */
    send(type, fields = {}) {
      const message = { ...fields, ssdlab: PROTOCOL_VERSION, type };
      if (this.ready && this.frame && this.frame.contentWindow) this.frame.contentWindow.postMessage(message, embedPage.origin);
      else this.waiting.push(message);
    }
    start() {
      this.send('start');
    }
    pause() {
      this.send('pause');
    }
    resume() {
      this.send('resume');
    }
    step() {
      this.send('step');
    }
    reset() {
      this.send('reset');
    }
    /** Shows the run up to `second` (null: all of it). */
    seek(second) {
      this.send('seek', { second });
    }
    /** Changes the setup: URL keys and values, e.g. { drive: 'p400e-400', span: 0.8 }. */
    configure(settings) {
      this.send('config', { settings });
    }

    receive(e) {
      // Only this element's frame, from the embed's own origin.
      if (!this.frame || e.source !== this.frame.contentWindow || e.origin !== embedPage.origin) return;
      const data = e.data;
      if (!data || data.ssdlab !== PROTOCOL_VERSION) return;
      if (data.type === 'height' && data.height > 0) this.frame.style.height = `${Math.ceil(data.height)}px`;
      if (data.type === 'ready' && !this.ready) {
        this.ready = true;
        for (const m of this.waiting.splice(0)) this.frame.contentWindow.postMessage(m, embedPage.origin);
      }
      this.dispatchEvent(new CustomEvent(`ssdlab-${data.type}`, { detail: data }));
    }
  }

  if (!customElements.get('ssd-lab')) customElements.define('ssd-lab', SsdLab);
})();
