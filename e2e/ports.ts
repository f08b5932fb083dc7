// The ports the end-to-end tests serve on: the built app (vite preview), and two static sites of
// other origins that frame it (e2e/hosts: a blog allowed to drive the embed, a third site that
// is not). Each can be set, so several checkouts can test on one machine at once.

export const APP_PORT = Number(process.env.SSDLAB_E2E_PORT || 4173);
export const HOST_PORT = Number(process.env.SSDLAB_E2E_HOST_PORT || APP_PORT + 2000);
export const THIRD_PORT = Number(process.env.SSDLAB_E2E_THIRD_PORT || APP_PORT + 2001);

export const APP_ORIGIN = `http://127.0.0.1:${APP_PORT}`;
export const HOST_ORIGIN = `http://127.0.0.1:${HOST_PORT}`;
export const THIRD_ORIGIN = `http://127.0.0.1:${THIRD_PORT}`;
