// @vitest-environment happy-dom
// The History menu opens a screen on a pick or Enter, never while its options are browsed with the arrow keys.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { HistorySelect } from './HistorySelect';
import { historyMenu } from './screens';

const HISTORY_MENU = historyMenu();

afterEach(cleanup);

describe('HistorySelect', () => {
  it('ArrowDown moves the choice without opening; Enter opens it', () => {
    const onOpen = vi.fn();
    render(<HistorySelect onOpen={onOpen} />);
    const select = screen.getByLabelText<HTMLSelectElement>('History');
    fireEvent.keyDown(select, { key: 'ArrowDown' });
    fireEvent.change(select, { target: { value: HISTORY_MENU[0].value } });
    fireEvent.keyUp(select, { key: 'ArrowDown' });
    expect(onOpen).not.toHaveBeenCalled();
    expect(select.value).toBe(HISTORY_MENU[0].value);
    fireEvent.keyDown(select, { key: 'Enter' });
    expect(onOpen).toHaveBeenCalledWith(HISTORY_MENU[0].value);
  });

  it('a pick with the mouse opens at once', () => {
    const onOpen = vi.fn();
    render(<HistorySelect onOpen={onOpen} />);
    const select = screen.getByLabelText('History');
    fireEvent.pointerDown(select);
    fireEvent.change(select, { target: { value: HISTORY_MENU[1].value } });
    expect(onOpen).toHaveBeenCalledWith(HISTORY_MENU[1].value);
  });

  it('Enter on the placeholder opens nothing', () => {
    const onOpen = vi.fn();
    render(<HistorySelect onOpen={onOpen} />);
    fireEvent.keyDown(screen.getByLabelText('History'), { key: 'Enter' });
    expect(onOpen).not.toHaveBeenCalled();
  });
});
