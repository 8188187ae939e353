// The header's 'Out of office' button of every approver dashboard: opens the self-service form in a dialog, and
// shows when a period is active.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CalendarOff } from 'lucide-react';
import { Button, Dialog, cn } from '../ui';
import { outOfOfficeApi } from './api';
import { OutOfOfficeForm } from './OutOfOfficeForm';

export function OutOfOfficeButton() {
  const [open, setOpen] = useState(false);
  const current = useQuery({ queryKey: ['out-of-office', 'me'], queryFn: outOfOfficeApi().get, staleTime: 60_000 });
  const away = current.data?.active === true;
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setOpen(true)}
        aria-label={away ? 'Out of office (on)' : 'Out of office'}
        data-testid="out-of-office-button"
        icon={<CalendarOff className={cn('h-4 w-4', away && 'text-amber-600')} aria-hidden="true" />}
      >
        <span className="hidden xl:inline">{away ? 'Away' : 'Out of office'}</span>
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Out of office"
        description="While you are away, your delegate decides what waits on you. You can still decide yourself."
      >
        <OutOfOfficeForm onDone={() => setOpen(false)} />
      </Dialog>
    </>
  );
}
