// Whether an element can be seen: inside the viewport (of the top page, for an element in a
// frame) and in a tab that is showing. An embed pauses its run while it cannot be seen.

import { useEffect, useState, type RefObject } from 'react';

export function useOnScreen(ref: RefObject<Element | null>): boolean {
  const [intersecting, setIntersecting] = useState(true);
  const [shown, setShown] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (last) setIntersecting(last.isIntersecting);
    });
    io.observe(el);
    return () => io.disconnect();
  }, [ref]);
  useEffect(() => {
    const on = () => setShown(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', on);
    return () => document.removeEventListener('visibilitychange', on);
  }, []);
  return intersecting && shown;
}
