// The Chief Smile Officer avatar: the project's own SVG drawing, animated by CSS per state (greeting, listening,
// speaking, idle — idle shows the greeting image at rest), and the avatar panel with name, CSO badge and caption.
import type { AvatarState } from '../voice/avatar';
import { Badge, Card } from '../ui';
import './chat.css';

export const AVATAR_CAPTIONS: Record<AvatarState, string> = {
  greeting: 'Hello! Ready to help 😊',
  listening: 'Listening...',
  speaking: 'Speaking...',
  idle: 'Standing By',
};

export function CsoAvatar({ state, size = 112 }: { state: AvatarState; size?: number }) {
  return (
    <svg
      className="cso-avatar"
      data-state={state}
      data-testid="cso-avatar"
      width={size}
      height={size}
      viewBox="0 0 120 120"
      role="img"
      aria-label={`Chief Smile Officer, ${AVATAR_CAPTIONS[state]}`}
    >
      <defs>
        <radialGradient id="cso-face" cx="45%" cy="38%" r="70%">
          <stop offset="0%" stopColor="#fff7d6" />
          <stop offset="70%" stopColor="#fde68a" />
          <stop offset="100%" stopColor="#f5c451" />
        </radialGradient>
      </defs>
      {/* listening rings */}
      <circle className="cso-ring" cx="60" cy="62" r="50" fill="none" stroke="#818cf8" strokeWidth="3" />
      <circle className="cso-ring cso-ring-2" cx="60" cy="62" r="50" fill="none" stroke="#a5b4fc" strokeWidth="3" />
      <g className="cso-body">
        {/* collar and tie: the officer */}
        <path d="M30 104 Q60 88 90 104 L90 118 L30 118 Z" fill="#4f46e5" />
        <path d="M55 96 L65 96 L62 104 L66 116 L60 119 L54 116 L58 104 Z" fill="#f59e0b" />
        {/* face */}
        <circle cx="60" cy="58" r="38" fill="url(#cso-face)" stroke="#eab308" strokeWidth="2" />
        {/* cheeks */}
        <ellipse cx="38" cy="68" rx="6" ry="4" fill="#fca5a5" opacity="0.7" />
        <ellipse cx="82" cy="68" rx="6" ry="4" fill="#fca5a5" opacity="0.7" />
        {/* eyes */}
        <ellipse className="cso-eye" cx="46" cy="52" rx="4.5" ry="6" fill="#1f2937" />
        <ellipse className="cso-eye" cx="74" cy="52" rx="4.5" ry="6" fill="#1f2937" />
        <circle cx="47.5" cy="50" r="1.5" fill="#fff" />
        <circle cx="75.5" cy="50" r="1.5" fill="#fff" />
        {/* brows */}
        <path d="M40 42 Q46 38 52 42" stroke="#92400e" strokeWidth="2.5" fill="none" strokeLinecap="round" />
        <path d="M68 42 Q74 38 80 42" stroke="#92400e" strokeWidth="2.5" fill="none" strokeLinecap="round" />
        {/* mouth: a smile, or an open mouth while speaking */}
        <path className="cso-smile" d="M44 70 Q60 86 76 70" stroke="#9a3412" strokeWidth="3.5" fill="#fff1f2" strokeLinecap="round" />
        <ellipse className="cso-mouth-open" cx="60" cy="75" rx="9" ry="7" fill="#9a3412" />
        {/* sound waves while speaking */}
        <path className="cso-wave" d="M100 60 Q106 68 100 76" stroke="#6366f1" strokeWidth="3" fill="none" strokeLinecap="round" />
        <path
          className="cso-wave cso-wave-2"
          d="M106 54 Q115 68 106 82"
          stroke="#818cf8"
          strokeWidth="3"
          fill="none"
          strokeLinecap="round"
        />
      </g>
      {/* waving hand (greeting) */}
      <g className="cso-hand">
        <ellipse cx="15" cy="74" rx="8" ry="9" fill="#fde68a" stroke="#eab308" strokeWidth="2" />
        <rect x="9" y="58" width="4" height="12" rx="2" fill="#fde68a" stroke="#eab308" strokeWidth="1.5" />
        <rect x="14" y="56" width="4" height="13" rx="2" fill="#fde68a" stroke="#eab308" strokeWidth="1.5" />
        <rect x="19" y="58" width="4" height="12" rx="2" fill="#fde68a" stroke="#eab308" strokeWidth="1.5" />
      </g>
    </svg>
  );
}

export function AvatarPanel({ state }: { state: AvatarState }) {
  return (
    <Card className="flex items-center gap-4 p-4" aria-label="Chief Smile Officer avatar" data-testid="avatar-panel">
      <CsoAvatar state={state} size={96} />
      <div className="min-w-0">
        <div className="flex items-center gap-2">
          <p className="text-base font-semibold text-gray-900">Chief Smile Officer</p>
          <Badge tone="accent">CSO</Badge>
        </div>
        <p className="mt-1 text-sm text-gray-600" data-testid="avatar-caption" aria-live="polite">
          {AVATAR_CAPTIONS[state]}
        </p>
      </div>
    </Card>
  );
}
