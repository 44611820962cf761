import type { ComponentPropsWithRef } from 'react';

export type ButtonVariant = 'default' | 'primary' | 'danger' | 'ghost';

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  variant?: ButtonVariant;
}

/** A button; `type="button"` unless told otherwise, so it never submits a form by accident. */
export function Button({ variant = 'default', className, type = 'button', ...props }: ButtonProps) {
  const classes = ['button', variant === 'default' ? '' : `button--${variant}`, className ?? '']
    .filter(Boolean)
    .join(' ');
  return <button type={type} className={classes} {...props} />;
}
