// A new giveaway from the app: the fields of the bot's /new (CONTRACT §11) in one form. The
// server checks everything, as the API does; each field the problem's `errors` name gets its
// message under it, and focus moves to the first one.

import { ApiProblem, api } from './app-api.client.ts';
import { buzz } from './app-bridge.client.ts';
import { currentLanguage, el, status, t } from './app-dom.client.ts';

interface Field {
  name: string;
  label: string;
  input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
  hint?: string;
}

function field(f: Field): HTMLElement {
  const id = `field-${f.name}`;
  f.input.id = id;
  f.input.name = f.name;
  const error = el('p', { class: 'field-error', attrs: { id: `${id}-error` } });
  error.hidden = true;
  const described = [f.hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' ');
  f.input.setAttribute('aria-describedby', described);
  return el(
    'div',
    { attrs: { 'data-field': f.name } },
    el('label', { text: f.label, attrs: { for: id } }),
    f.input,
    f.hint ? el('p', { class: 'hint', text: f.hint, attrs: { id: `${id}-hint` } }) : null,
    error,
  );
}

const input = (attrs: Record<string, string>) => el('input', { attrs });

/** An RFC 3339 time (UTC) from a datetime-local value, read in the device's time zone. */
function rfc3339(local: string): string | undefined {
  if (!local) return undefined;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
}

export function newGiveawayForm(
  done: (created: { public_id: string; channel: string }) => void,
): HTMLElement {
  const claim = el(
    'select',
    {},
    el('option', { text: t('app-claim-none'), attrs: { value: '' } }),
    el('option', { text: t('app-claim-1d'), attrs: { value: 'P1D' } }),
    el('option', { text: t('app-claim-3d'), attrs: { value: 'P3D' } }),
    el('option', { text: t('app-claim-7d'), attrs: { value: 'P7D' } }),
  );
  const fields: Field[] = [
    {
      name: 'title',
      label: t('app-field-title'),
      input: input({ required: '', maxlength: '200', autocomplete: 'off' }),
    },
    {
      name: 'description',
      label: t('app-field-description'),
      input: el('textarea', { attrs: { maxlength: '4000' } }),
    },
    {
      name: 'winners_count',
      label: t('app-field-winners'),
      input: input({ type: 'number', min: '1', max: '1000', value: '1', inputmode: 'numeric', required: '' }),
    },
    {
      name: 'reserve_count',
      label: t('app-field-reserves'),
      input: input({ type: 'number', min: '0', max: '100', value: '0', inputmode: 'numeric' }),
    },
    {
      name: 'ends_at',
      label: t('app-field-ends'),
      input: input({ type: 'datetime-local' }),
      hint: t('app-field-ends-hint'),
    },
    {
      name: 'channel',
      label: t('app-field-channel'),
      input: input({ required: '', placeholder: '@channel', autocomplete: 'off', autocapitalize: 'none' }),
      hint: t('app-field-channel-hint'),
    },
    {
      name: 'required_channels',
      label: t('app-field-required'),
      input: input({ placeholder: '@sponsor', autocomplete: 'off', autocapitalize: 'none' }),
      hint: t('app-field-required-hint'),
    },
    { name: 'claim_within', label: t('app-field-claim'), input: claim },
    { name: 'terms', label: t('app-field-terms'), input: el('textarea', { attrs: { maxlength: '20000' } }) },
  ];
  const submit = el('button', { text: t('app-publish'), attrs: { type: 'submit', id: 'publish' } });
  const form = el(
    'form',
    { attrs: { id: 'new-giveaway', novalidate: '' } },
    el('h2', { text: t('app-new') }),
    ...fields.map(field),
    el('p', { class: 'actions' }, submit),
  );

  function clearErrors(): void {
    for (const f of fields) {
      f.input.removeAttribute('aria-invalid');
      const error = form.querySelector<HTMLElement>(`#field-${f.name}-error`)!;
      error.hidden = true;
      error.textContent = '';
    }
  }

  function showErrors(problem: ApiProblem): void {
    const named = problem.errors.length > 0 ? problem.errors : [{ parameter: '', message: problem.message }];
    let first: Field | undefined;
    for (const { parameter, message } of named) {
      const f = fields.find((x) => x.name === parameter || parameter.startsWith(`${x.name}.`));
      if (!f) continue;
      first ??= f;
      f.input.setAttribute('aria-invalid', 'true');
      const error = form.querySelector<HTMLElement>(`#field-${f.name}-error`)!;
      error.textContent = error.textContent ? `${error.textContent} ${message}` : message;
      error.hidden = false;
    }
    status(first ? t('app-invalid') : t('app-error', { detail: problem.message }), 'bad');
    first?.input.focus();
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors();
    const value = (name: string) => fields.find((f) => f.name === name)!.input.value.trim();
    const body: Record<string, unknown> = {
      title: value('title'),
      winners_count: Number(value('winners_count')),
      channel: value('channel'),
      language: currentLanguage(),
    };
    const optional = {
      description: value('description'),
      reserve_count: value('reserve_count') === '' ? '' : Number(value('reserve_count')),
      ends_at: rfc3339(value('ends_at')),
      required_channels: value('required_channels'),
      claim_within: value('claim_within'),
      // The rules are kept exactly as typed: the seal commits to these bytes.
      terms: fields.find((f) => f.name === 'terms')!.input.value,
    };
    for (const [name, v] of Object.entries(optional))
      if (v !== '' && v !== undefined && v !== 0) body[name] = v;
    submit.disabled = true;
    submit.textContent = t('app-publishing');
    try {
      const created = await api('/app/api/giveaways', { method: 'POST', body });
      buzz('success');
      status(t('app-published', { channel: created.channel }));
      done(created);
    } catch (error) {
      buzz('error');
      if (error instanceof ApiProblem) showErrors(error);
      else status(t('app-error', { detail: String(error) }), 'bad');
    } finally {
      submit.disabled = false;
      submit.textContent = t('app-publish');
    }
  });
  return form;
}
