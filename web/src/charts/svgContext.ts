// A stand-in for the canvas 2D context that records what draw.ts paints as SVG elements, so an
// exported SVG has the very dots and lines the canvas shows, drawn by the same code.

const r2 = (v: number) => String(Math.round(v * 100) / 100);

export class SvgRecorder {
  fillStyle = '#000';
  strokeStyle = '#000';
  lineWidth = 1;
  lineJoin = 'miter';
  private d: string[] = [];
  private readonly out: string[] = [];
  private clips = 0;
  private openGroups: number[] = [];

  /** The recorded elements, as SVG markup. */
  markup(): string {
    return this.out.join('') + '</g>'.repeat(this.openGroups.reduce((a, b) => a + b, 0));
  }

  // Transforms and clearing mean nothing for a recording made in CSS pixels.
  setTransform(): void {}
  clearRect(): void {}

  beginPath(): void {
    this.d = [];
  }
  moveTo(x: number, y: number): void {
    this.d.push(`M${r2(x)} ${r2(y)}`);
  }
  lineTo(x: number, y: number): void {
    this.d.push(`L${r2(x)} ${r2(y)}`);
  }
  closePath(): void {
    this.d.push('Z');
  }
  /** Only whole circles are drawn (dots): two half arcs from the current point at (x + r, y). */
  arc(x: number, y: number, r: number): void {
    this.d.push(`A${r2(r)} ${r2(r)} 0 1 0 ${r2(x - r)} ${r2(y)}A${r2(r)} ${r2(r)} 0 1 0 ${r2(x + r)} ${r2(y)}`);
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.d.push(`M${r2(x)} ${r2(y)}h${r2(w)}v${r2(h)}h${r2(-w)}Z`);
  }
  fill(): void {
    if (this.d.length) this.out.push(`<path d="${this.d.join('')}" fill="${this.fillStyle}"/>`);
  }
  stroke(): void {
    if (this.d.length) {
      this.out.push(
        `<path d="${this.d.join('')}" fill="none" stroke="${this.strokeStyle}" stroke-width="${this.lineWidth}" stroke-linejoin="${this.lineJoin}"/>`,
      );
    }
  }
  fillRect(x: number, y: number, w: number, h: number): void {
    this.out.push(`<rect x="${r2(x)}" y="${r2(y)}" width="${r2(w)}" height="${r2(h)}" fill="${this.fillStyle}"/>`);
  }
  save(): void {
    this.openGroups.push(0);
  }
  clip(): void {
    const id = `clip${++this.clips}`;
    this.out.push(`<clipPath id="${id}"><path d="${this.d.join('')}"/></clipPath><g clip-path="url(#${id})">`);
    this.openGroups[this.openGroups.length - 1]++;
  }
  restore(): void {
    const n = this.openGroups.pop() ?? 0;
    this.out.push('</g>'.repeat(n));
  }
}

/** The recorder typed as the context draw.ts takes (it uses only what the recorder has). */
export function asContext(rec: SvgRecorder): CanvasRenderingContext2D {
  return rec as unknown as CanvasRenderingContext2D;
}
