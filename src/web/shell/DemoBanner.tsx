// The Demo banner: a thin strip above every screen while the server runs in demo mode, so nobody mistakes the
// demo organisation (whose passwords are published) for a real installation. It sits in the page flow (never
// over other content) and wraps on narrow screens.
import { FlaskConical } from 'lucide-react';
import { useDemoMode } from '../auth/demo-mode';

export function DemoBanner() {
  const demo = useDemoMode();
  if (!demo) return null;
  return (
    <aside
      aria-label="Demo mode"
      data-testid="demo-banner"
      className="w-full border-b border-amber-300 bg-amber-100 px-4 py-1 text-center text-xs leading-5 text-amber-950"
    >
      <FlaskConical className="mr-1 inline h-3.5 w-3.5 align-[-2px]" aria-hidden="true" />
      <strong className="font-semibold">Demo</strong>
      <span>: sample organisation with published passwords. Do not enter real data.</span>
    </aside>
  );
}
