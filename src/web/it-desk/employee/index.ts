// Employee-side IT pieces for the form-details modal: mount ItIncidentResolution in an it-incident's card and
// PasswordResetNewPassword in a password-reset's card (each takes the record and an optional onChanged).
export { ItIncidentResolution, type ItIncidentResolutionProps } from './ItIncidentResolution';
export { PasswordResetNewPassword, type PasswordResetNewPasswordProps } from './PasswordResetNewPassword';
