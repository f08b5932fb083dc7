// Where the notes of an experiment chart's guide lines go (xyMarks.tsx): inside the plot, and not
// over one another.

/** A guide line on the plot, in pixels, and its note. */
export interface GuideSegment {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  vertical: boolean;
  text: string;
}

/** Where a guide's note is written. */
export interface NotePlace {
  x: number;
  y: number;
  anchor: 'start' | 'end';
}

/** A note's width estimated from its length (11 px type: about 6 px a character; no layout to measure). */
const NOTE_CHAR_PX = 6.2;
const NOTE_ROW_PX = 13;
const NOTE_GAP_PX = 6;

/**
 * Places the guides' notes inside a plot `w` wide: a horizontal line's note over its right end, or
 * past its end when the line is too short to hold it, never beyond the plot's edges; a vertical
 * line's note beside its top, on the first row that no other vertical note there overlaps (two
 * lines at the same place, the run's cache end and the published one, stack rather than collide).
 */
export function placeGuideNotes(segments: readonly GuideSegment[], w: number): NotePlace[] {
  const rows: [number, number][][] = [];
  return segments.map((g) => {
    const width = g.text.length * NOTE_CHAR_PX;
    if (!g.vertical) {
      const [left, right] = [Math.min(g.x0, g.x1), Math.max(g.x0, g.x1)];
      const y = g.y0 - 5;
      if (right - left >= width + 8) return { x: right - 4, y, anchor: 'end' };
      if (right + 4 + width <= w) return { x: right + 4, y, anchor: 'start' };
      return { x: Math.max(width, Math.min(w, left - 4)), y, anchor: 'end' };
    }
    const fitsRight = g.x0 + 4 + width <= w;
    const span: [number, number] = fitsRight ? [g.x0 + 4, g.x0 + 4 + width] : [g.x0 - 4 - width, g.x0 - 4];
    let row = rows.findIndex((taken) => taken.every(([a, b]) => span[1] + NOTE_GAP_PX <= a || span[0] >= b + NOTE_GAP_PX));
    if (row < 0) row = rows.push([]) - 1;
    rows[row].push(span);
    return { x: fitsRight ? g.x0 + 4 : g.x0 - 4, y: Math.max(g.y1, 0) + 12 + row * NOTE_ROW_PX, anchor: fitsRight ? 'start' : 'end' };
  });
}
