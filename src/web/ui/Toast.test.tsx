// @vitest-environment happy-dom
// Toasts leave by themselves after a few seconds, but not while the pointer is over one or focus is in it: the
// reader gets the time they need (WCAG 2.2.1); the time starts again when they leave.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ToastProvider, useToast, type ToastApi } from './Toast';

let api!: ToastApi;
function Grab() {
  api = useToast();
  return null;
}

beforeEach(() => {
  vi.useFakeTimers();
  render(
    <ToastProvider>
      <Grab />
    </ToastProvider>,
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Toast', () => {
  it('an error toast leaves by itself after 7 s, a success toast after 4 s', () => {
    act(() => {
      api.error('Failed to approve request');
      api.success('Saved');
    });
    expect(screen.getByRole('alert').textContent).toContain('Failed to approve request');
    act(() => void vi.advanceTimersByTime(4100));
    expect(screen.queryByText('Saved')).toBeNull();
    expect(screen.queryByRole('alert')).not.toBeNull();
    act(() => void vi.advanceTimersByTime(3000));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('stays while the pointer is over it and leaves 7 s after the pointer leaves', () => {
    act(() => api.error('Failed to approve request'));
    const toast = screen.getByRole('alert');
    fireEvent.pointerEnter(toast);
    act(() => void vi.advanceTimersByTime(60_000));
    expect(screen.queryByRole('alert')).not.toBeNull();
    fireEvent.pointerLeave(toast);
    act(() => void vi.advanceTimersByTime(6900));
    expect(screen.queryByRole('alert')).not.toBeNull();
    act(() => void vi.advanceTimersByTime(200));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('stays while focus is in it (on its dismiss button); the button dismisses it', () => {
    act(() => api.error('Failed to approve request'));
    const button = screen.getByRole('button', { name: 'Dismiss notification' });
    act(() => button.focus());
    act(() => void vi.advanceTimersByTime(60_000));
    expect(screen.queryByRole('alert')).not.toBeNull();
    fireEvent.click(button);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
