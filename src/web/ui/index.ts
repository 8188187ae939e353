// The shared UI kit: import components from 'src/web/ui'.
export { Button, type ButtonProps, type ButtonVariant } from './Button';
export { Input, Select, Textarea, type InputProps, type SelectProps, type TextareaProps } from './Field';
export { Dialog, focusableIn, type DialogProps } from './Dialog';
export { Table, THead, TBody, Tr, Th, Td, TableMessageRow, type TableProps, type ShowFrom } from './Table';
export { Badge, StatusBadge, statusBadgeTone, type BadgeTone, type BadgeProps, type StatusBadgeProps } from './Badge';
export { Tabs, Chips, type TabItem, type TabsProps, type ChipsProps } from './Tabs';
export { Spinner, type SpinnerProps } from './Spinner';
export { EmptyState, type EmptyStateProps } from './EmptyState';
export { ErrorBanner, type ErrorBannerProps } from './ErrorBanner';
export { ToastProvider, useToast, type ToastApi } from './Toast';
export { Card, CardHeader, StatTile } from './Card';
export { cn } from './cn';
