// The first-visit guide: four short steps from the empty page to "I see why it dipped". It sits
// above the chart (not over it), can be closed at any step, and is not shown again once closed.

import { useState } from 'react';

const KEY = 'ssdlab.guide.done';

export function guideWanted(): boolean {
  try {
    return localStorage.getItem(KEY) !== '1';
  } catch {
    return true;
  }
}

function remember(): void {
  try {
    localStorage.setItem(KEY, '1');
  } catch {
    // Private mode: the guide shows again next visit.
  }
}

export interface GuideProps {
  /** Starts a short run of the article's test (the first step's button). */
  onTry(): void;
  onClose(): void;
}

const STEPS: { title: string; text: string }[] = [
  {
    title: 'A real SSD, simulated in your browser',
    text:
      'This is Intel’s DC S3700 running the test from AnandTech’s review: fill the drive, then write 4 KB blocks ' +
      'to random places as fast as it accepts them. Each dot is one simulated second. Press the button to run 600 seconds.',
  },
  {
    title: 'Watch the drop',
    text:
      'At first the drive writes into clean flash, around 89,000 writes a second. When the clean blocks run out, the ' +
      'garbage collector must copy still-valid data out of old blocks before it can erase them, and the dots fall to ' +
      'about 30,000.',
  },
  {
    title: 'Ask a dot why',
    text:
      'Click any dot (or Tab to the chart, move with the arrow keys and press Enter) and the page explains that second: ' +
      'how many pages GC copied, how few free blocks were left, whether the drive-wide clean-up was running.',
  },
  {
    title: 'Change something and compare',
    text:
      'Press “Compare with another run”, give it more spare area or another drive, and Start: both runs draw on one ' +
      'chart. The settings on the left always edit the highlighted run.',
  },
];

export function Guide({ onTry, onClose }: GuideProps) {
  const [step, setStep] = useState(0);
  const s = STEPS[step];
  const close = () => {
    remember();
    onClose();
  };
  return (
    <section className="guide" aria-labelledby="guide-title" data-testid="guide">
      <p className="guide-step">
        Step {step + 1} of {STEPS.length}
      </p>
      <h2 id="guide-title">{s.title}</h2>
      <p>{s.text}</p>
      <div className="guide-buttons">
        {step === 0 && (
          <button
            type="button"
            className="primary"
            onClick={() => {
              onTry();
              setStep(1);
            }}
            data-testid="guide-try"
          >
            Run 600 seconds
          </button>
        )}
        {step > 0 && (
          <button type="button" onClick={() => setStep(step - 1)}>
            Back
          </button>
        )}
        {step < STEPS.length - 1 ? (
          <button type="button" onClick={() => setStep(step + 1)} data-testid="guide-next">
            Next
          </button>
        ) : (
          <button type="button" className="primary" onClick={close} data-testid="guide-done">
            Got it
          </button>
        )}
        <button type="button" className="link" onClick={close} data-testid="guide-close">
          Close the guide
        </button>
      </div>
    </section>
  );
}
