// The employee dashboard's header buttons in the spec's order: calendar popover, notifications bell and messages
// (built by the calendar, notifications and chat features and passed in as slots), then tasks and settings.
import type { ReactNode } from 'react';
import type { Submission } from '../forms/submissions';
import { SettingsButton } from './SettingsButton';
import { TasksButton } from './TasksButton';

export interface EmployeeHeaderActionsProps {
  calendar?: ReactNode;
  notifications?: ReactNode;
  messages?: ReactNode;
  tasks: readonly Submission[];
  tasksLoading?: boolean;
  onOpenTask: (task: Submission) => void;
}

export function EmployeeHeaderActions({ calendar, notifications, messages, tasks, tasksLoading, onOpenTask }: EmployeeHeaderActionsProps) {
  return (
    <>
      {calendar}
      {notifications}
      {messages}
      <TasksButton tasks={tasks} loading={tasksLoading} onSelect={onOpenTask} />
      <SettingsButton />
    </>
  );
}
