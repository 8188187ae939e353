// @vitest-environment happy-dom
// Dialog behaviour: labelled modal, focus moves in and back, Tab is trapped, Escape closes only the top dialog.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Dialog } from './Dialog';

afterEach(cleanup);

function Harness({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      <Dialog
        open={open}
        onClose={() => {
          onClose?.();
          setOpen(false);
        }}
        title="Reject request"
        description="Give a reason"
        footer={<button>Confirm</button>}
      >
        <input aria-label="Reason" />
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('is a labelled modal that takes focus and gives it back on Escape', () => {
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Reject request' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Reason'));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('keeps Tab inside the dialog', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const confirm = screen.getByRole('button', { name: 'Confirm' });
    confirm.focus();
    fireEvent.keyDown(confirm, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close dialog' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirm);
  });

  it('keeps Tab and Escape when the focused button went away (focus fell to the page body)', () => {
    const onClose = vi.fn();
    function Reveal() {
      const [shown, setShown] = useState(false);
      return shown ? <p>secret</p> : <button onClick={() => setShown(true)}>Show New Password</button>;
    }
    render(
      <Dialog open onClose={onClose} title="Details" footer={<button>Done</button>}>
        <Reveal />
      </Dialog>,
    );
    const show = screen.getByRole('button', { name: 'Show New Password' });
    show.focus();
    fireEvent.click(show);
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    fireEvent.keyDown(document.body, { key: 'Tab' });
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Done' }));
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('brings focus that moves behind the dialog back into it', () => {
    render(
      <>
        <button>Behind</button>
        <Dialog open onClose={() => undefined} title="Details">
          <input aria-label="Inside" />
        </Dialog>
      </>,
    );
    screen.getByRole('button', { name: 'Behind' }).focus();
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
  });

  it('closes on backdrop click and on the close button', () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close dialog' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes only the innermost of nested dialogs on Escape', () => {
    function Nested() {
      const [inner, setInner] = useState(true);
      const [outer, setOuter] = useState(true);
      return (
        <Dialog open={outer} onClose={() => setOuter(false)} title="Outer">
          <Dialog open={inner} onClose={() => setInner(false)} title="Inner">
            <button>Inside</button>
          </Dialog>
        </Dialog>
      );
    }
    render(<Nested />);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Inside' }), { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Inner' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Outer' })).toBeTruthy();
  });
});
