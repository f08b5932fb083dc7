// Saving a chart: an SVG built from the chart's own SVG layers (styles inlined, so the file
// looks the same anywhere) with its dots and lines recorded as vector paths, and a PNG rendered
// from that SVG. Files are handed to the browser as downloads.

const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-size',
  'font-weight',
  'font-family',
  'paint-order',
  'shape-rendering',
];

/** A copy of an SVG element with its computed styles written into each element. */
function inlined(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...Array.from(svg.querySelectorAll('*'))];
  const to = [copy, ...Array.from(copy.querySelectorAll('*'))];
  from.forEach((el, i) => {
    const cs = getComputedStyle(el);
    const style = STYLE_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';');
    to[i].setAttribute('style', style);
    to[i].removeAttribute('class');
  });
  return copy.innerHTML;
}

export interface ChartPicture {
  width: number;
  height: number;
  /** Chart title, written above the plot. */
  title: string;
  background: string;
  ink: string;
  /** Series shown in the legend line under the title. */
  legend: readonly { label: string; color: string }[];
  axes: SVGSVGElement;
  overlay: SVGSVGElement | null;
  /** The dots and lines, as SVG markup in the plot's pixel coordinates. */
  marks: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The chart as a standalone SVG document. */
export function chartSvg(p: ChartPicture): string {
  const head = p.legend.length > 0 ? 44 : 26;
  let x = 8;
  const legend = p.legend
    .map((l) => {
      const item = `<circle cx="${x + 5}" cy="36" r="4.5" fill="${l.color}"/><text x="${x + 14}" y="40" font-size="12" fill="${p.ink}">${esc(l.label)}</text>`;
      x += 24 + l.label.length * 6.6;
      return item;
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${p.width}" height="${p.height + head}" viewBox="0 0 ${p.width} ${p.height + head}" font-family="system-ui, sans-serif">` +
    `<rect width="100%" height="100%" fill="${p.background}"/>` +
    `<text x="8" y="17" font-size="14" font-weight="600" fill="${p.ink}">${esc(p.title)}</text>${legend}` +
    `<g transform="translate(0 ${head})">${inlined(p.axes)}<g>${p.marks}</g>${p.overlay ? inlined(p.overlay) : ''}</g></svg>`
  );
}

/** Renders an SVG document to a PNG at `scale` times its size. */
export async function svgToPng(svg: string, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(img.naturalWidth * scale);
    canvas.height = Math.round(img.naturalHeight * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('this browser cannot draw a PNG');
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be made'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Hands a file to the browser as a download. */
export function download(data: Blob | string, fileName: string, type = 'text/plain'): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Saves a chart as an SVG or PNG named after its title; null once saved, otherwise the sentence
 * saying why not. The picture is built here, so a failure building it is told the same way.
 */
export async function savePicture(kind: 'png' | 'svg', picture: () => ChartPicture): Promise<string | null> {
  try {
    const p = picture();
    const svg = chartSvg(p);
    const name = fileSlug(p.title);
    if (kind === 'svg') download(svg, `${name}.svg`, 'image/svg+xml');
    else download(await svgToPng(svg), `${name}.png`);
    return null;
  } catch (e) {
    return `The picture could not be saved: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** A file name from a title: "S3700 vs P3700, IOPS" -> "s3700-vs-p3700-iops". */
export function fileSlug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'chart'
  );
}
