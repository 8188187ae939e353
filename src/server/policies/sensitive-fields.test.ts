// The sensitive fields of a type come from its registry entry (`sensitiveFields`), besides the names sensitive in
// any type: a type registered with its own personal-data field has it hidden from viewers who do not decide it.
import { describe, expect, it } from 'vitest';
import { formTypeDef, registerFormType } from '../../domain/forms.js';
import { isSensitiveField } from './requests.js';

describe('sensitive fields from the registry', () => {
  it("an info update's old and new information, as its entry says", () => {
    expect(formTypeDef('info-update')!.sensitiveFields).toEqual(['old_information', 'new_information']);
    expect(isSensitiveField('info-update', 'old_information')).toBe(true);
    expect(isSensitiveField('info-update', 'update_type')).toBe(false);
    // The same field name in a type that does not mark it is not sensitive.
    expect(isSensitiveField('leave-request', 'new_information')).toBe(false);
    // Names sensitive in any type, and the flag that is not the secret.
    expect(isSensitiveField('travel-request', 'bank_account')).toBe(true);
    expect(isSensitiveField('password-reset', 'has_new_password')).toBe(false);
  });

  it('a type registered with its own sensitive field', () => {
    registerFormType({
      formType: 'salary-review',
      title: 'Salary Review',
      category: 'Human Resources',
      icon: 'Wallet',
      idPrefix: 'SRV',
      chain: ['line_manager', 'hr'],
      sensitiveFields: ['current_salary'],
      catalogue: { description: 'Ask for a review of your salary.', estimatedTime: '5 min', priority: 'low' },
      keywords: ['salary'],
      fields: [
        { name: 'current_salary', label: 'Current salary (USD)', type: 'money', required: true, question: 'What do you earn now?' },
        { name: 'reason', label: 'Reason', type: 'longtext', required: true, question: 'Why?' },
      ],
    });
    expect(isSensitiveField('salary-review', 'current_salary')).toBe(true);
    expect(isSensitiveField('salary-review', 'reason')).toBe(false);
  });
});
