/** The keypad of a call in progress: each key sends its tone (a menu's choice, a PIN), and the tones sent so far show beneath. */
import { useState } from 'react';
import { Button } from '../../../components/ui/button.js';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;

/** The latest tones, enough to check a PIN or an account number typed. */
const SHOWN_TONES = 24;

export const DtmfKeypad = ({ onTone }: { onTone: (tone: string) => void }) => {
  const [sent, setSent] = useState('');
  return (
    <div role="group" aria-label="Keypad" className="flex flex-col gap-1">
      <div className="grid grid-cols-3 gap-1">
        {KEYS.map((key) => (
          <Button
            key={key}
            className="tabular text-base"
            onClick={() => {
              onTone(key);
              setSent((before) => (before + key).slice(-SHOWN_TONES));
            }}
          >
            {key}
          </Button>
        ))}
      </div>
      <p className="min-h-5 text-xs text-muted tabular">{sent === '' ? 'No tones sent yet' : `Sent: ${sent}`}</p>
    </div>
  );
};
