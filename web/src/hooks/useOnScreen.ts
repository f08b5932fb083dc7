// Whether enough of an element can be seen to be worth keeping live: half of it, or at least
// MIN_SHOWN_PX of a tall one, inside the viewport (the top page's, for an element in a frame), in
// a tab that is showing. An embed runs only then, so a page of several charts runs one or two
// at a time and its own scrolling keeps a core.

import { useEffect, useState, type RefObject } from 'react';

const MIN_SHOWN_PX = 240;
/** Ratios at which the observer reports, fine enough to see MIN_SHOWN_PX of a tall element. */
const THRESHOLDS = Array.from({ length: 21 }, (_, i) => i / 20);

export function useOnScreen(ref: RefObject<Element | null>): boolean {
  const [inView, setInView] = useState(true);
  const [shown, setShown] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        const e = entries[entries.length - 1];
        if (!e) return;
        const seen = e.intersectionRect.height;
        setInView(e.isIntersecting && seen > 0 && seen >= Math.min(e.boundingClientRect.height / 2, MIN_SHOWN_PX));
      },
      { threshold: THRESHOLDS },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [ref]);
  useEffect(() => {
    const on = () => setShown(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', on);
    return () => document.removeEventListener('visibilitychange', on);
  }, []);
  return inView && shown;
}
