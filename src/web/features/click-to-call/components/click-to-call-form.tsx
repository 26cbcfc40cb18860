/** The click-to-call form: provider, subscriber and number in, one call out, then its progress. */
import { useQuery } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useId, useState, type ComponentProps, type FormEvent } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import { Banner } from '../../../components/ui/banner.js';
import { Button } from '../../../components/ui/button.js';
import { useApi } from '../../../lib/api/api-context.js';
import type { ApiError } from '../../../lib/api/api-error.js';
import { subscribersQueryOptions } from '../../../lib/api/subscribers-query.js';
import { useCallBackRequest } from '../../../lib/call-back.js';
import { decodeTelURI, parseDialInput } from '../../../lib/dial-input.js';
import { formatPhoneNumber } from '../../../lib/format.js';
import { lazyComponent } from '../../../lib/lazy-component.js';
import type { Workspace } from '../../../lib/workspace.js';
import { usePlaceCall } from '../hooks/use-place-call.js';
import type { CallProblem as CallProblemView } from './call-problem.js';
import { CallerIdentity } from './caller-identity.js';
import { inputClass, labelClass } from './field-styles.js';
import { NumberField } from './number-field.js';
import { SubscriberPicker } from './subscriber-picker.js';
import { PartBoundary } from '../../../components/part-boundary.js';

/**
 * What follows a placed call, its progress or why it failed, is not needed before the live data is
 * on screen: the live view loads it once its first data is there, or a call placed sooner loads it
 * while the service answers.
 */
const loadCallOutcome = () => import('./call-outcome.js');
const { Component: CallProgressView, preload: preloadCallProgress } = lazyComponent(
  async () => (await loadCallOutcome()).CallProgressView,
);
const { Component: CallProblem, preload: preloadCallProblem } = lazyComponent<ComponentProps<typeof CallProblemView>>(() =>
  loadCallOutcome().then(
    (outcome) => outcome.CallProblem,
    // Where the service cannot be reached, neither can the words for it: its own message, not the page's error screen.
    () =>
      ({ error }: { error: ApiError }) => (
        <Banner tone="danger" title={error.detail}>
          <p>Code: {error.code}</p>
        </Banner>
      ),
  ),
);
export const preloadCallOutcome = () => Promise.all([preloadCallProgress(), preloadCallProblem()]);

/**
 * A requested number as people read it: digits formatted unless formatting would not give back the
 * same digits; a link that says more than digits (an extension, a local context) stays as it came,
 * so the form can say what happens to the rest.
 */
const callBackText = (requested: string): string => {
  const text = decodeTelURI(requested);
  const dial = parseDialInput(text);
  if (!dial.ok || dial.extension || dial.localTo) return text;
  const formatted = formatPhoneNumber(dial.digits);
  const roundTrip = parseDialInput(formatted);
  return roundTrip.ok && roundTrip.digits === dial.digits ? formatted : dial.digits;
};

const FIELDS_WITH_INPUTS = ['providerSubscriberID', 'remoteNumber'];

export const ClickToCallForm = ({ workspace, calls }: { workspace: Workspace; calls: readonly CallRecord[] }) => {
  const providerControlId = useId();
  const subscriberControlId = useId();
  const numberId = useId();
  const submitId = useId();
  const client = useApi();

  const [chosenProviderID, setChosenProviderID] = useState<string>();
  // The panel renders the form only when the workspace has a provider.
  const scope = workspace.scopes.find((s) => s.providerID === chosenProviderID) ?? workspace.scopes[0]!;
  const nameOf = (providerID: string) => workspace.providers.find((p) => p.id === providerID)?.name ?? providerID;
  // Each provider has its own subscribers, so the choice is remembered per provider.
  const [subscriberByProvider, setSubscriberByProvider] = useState<Record<string, string>>({});
  const [number, setNumber] = useState('');
  const [numberTouched, setNumberTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const { place, placed, pending, error, dismissError } = usePlaceCall();

  const providerID = scope.providerID;
  const providerName = nameOf(providerID);
  // An agent's token places calls as its own subscriber(s) only: the first is chosen from the start.
  const bound = workspace.subscriberIDs;
  const mayCallAs = (id: string) => bound === undefined || bound.includes(id);
  const subscriberID = subscriberByProvider[providerID] ?? bound?.[0] ?? '';
  const caller = useQuery({
    ...subscribersQueryOptions(client, scope),
    select: (data) => data.subscribers.find((s) => s.providerSubscriberID === subscriberID.trim()),
  });
  const callerName = caller.data?.firstName ?? (subscriberID.trim() || 'the subscriber');

  const chooseSubscriber = useCallback(
    (id: string) => setSubscriberByProvider((current) => ({ ...current, [providerID]: id })),
    [providerID],
  );
  // Stable handlers keep the memoised fields from rendering with every update of the calls.
  const onSubscriberChange = useCallback(
    (id: string) => {
      chooseSubscriber(id);
      dismissError();
    },
    [chooseSubscriber, dismissError],
  );
  const onNumberChange = useCallback(
    (text: string) => {
      setNumber(text);
      dismissError();
    },
    [dismissError],
  );
  const onNumberBlur = useCallback(() => {
    if (number.trim() !== '') setNumberTouched(true);
  }, [number]);

  // A call-back request fills the form once per distinct request, during render so no stale frame shows.
  const callBack = useCallBackRequest();
  const callBackKey = callBack
    ? `${callBack.remoteNumber}\n${callBack.subscriberID ?? ''}\n${callBack.requestedAt ?? ''}`
    : undefined;
  const [appliedCallBack, setAppliedCallBack] = useState<string>();
  if (callBackKey !== appliedCallBack) {
    setAppliedCallBack(callBackKey);
    if (callBack) {
      setNumber(callBackText(callBack.remoteNumber));
      setNumberTouched(true);
      // An agent calls back as themself, whoever took the call; a supervisor as whoever took it.
      if (callBack.subscriberID && mayCallAs(callBack.subscriberID)) chooseSubscriber(callBack.subscriberID);
    }
  }
  const callBackFocus = !callBack
    ? undefined
    : !parseDialInput(callBack.remoteNumber).ok
      ? numberId
      : bound || callBack.subscriberID
        ? submitId
        : subscriberControlId;
  useEffect(() => {
    if (!callBackFocus) return;
    dismissError();
    // The agent confirms with one key: the submit when the caller is known, else the caller's field,
    // or the number itself when it needs fixing first.
    document.getElementById(callBackFocus)?.focus();
  }, [callBackKey, callBackFocus, dismissError]);

  const serviceFieldErrors = error?.code === 'validation_failed' ? error.fieldErrors : [];
  const serviceError = (field: string, what: string) => {
    const found = serviceFieldErrors.find((e) => e.field === field);
    return found ? `The service says ${what} ${found.message}.` : undefined;
  };
  const otherFieldErrors = serviceFieldErrors
    .filter((e) => !FIELDS_WITH_INPUTS.includes(e.field))
    .map((e) => `${e.field}: ${e.message}`);
  const subscriberError =
    serviceError('providerSubscriberID', 'this subscriber ID') ??
    (submitted && subscriberID.trim() === '' ? 'Choose the subscriber who places the call.' : undefined);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    setNumberTouched(true);
    const id = subscriberID.trim();
    const dial = parseDialInput(number);
    if (id === '' || !dial.ok) {
      document.getElementById(id === '' ? subscriberControlId : numberId)?.focus();
      return;
    }
    void preloadCallOutcome().catch(() => undefined);
    const accepted = await place({ scope, providerName, subscriberID: id, callerName, digits: dial.digits });
    // A fresh form after a placed call: pressing the button again must be a deliberate new call.
    if (accepted) {
      setNumber('');
      setNumberTouched(false);
      setSubmitted(false);
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <form noValidate className="flex flex-col gap-4" onSubmit={(event) => void onSubmit(event)}>
        {workspace.scopes.length > 1 ? (
          <div className="flex flex-col gap-1">
            <label htmlFor={providerControlId} className={labelClass}>
              Provider
            </label>
            <select
              id={providerControlId}
              className={inputClass}
              value={providerID}
              onChange={(event) => {
                setChosenProviderID(event.target.value);
                dismissError();
              }}
            >
              {workspace.scopes.map((s) => (
                <option key={s.providerID} value={s.providerID}>
                  {nameOf(s.providerID)}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p className="text-sm text-muted">
            Calls go through <span className="font-medium text-ink">{providerName}</span>.
          </p>
        )}
        {bound ? (
          <CallerIdentity
            key={providerID}
            scope={scope}
            controlId={subscriberControlId}
            providerName={providerName}
            subscriberIDs={bound}
            value={subscriberID}
            error={subscriberError}
            onChange={onSubscriberChange}
          />
        ) : (
          <SubscriberPicker
            key={providerID}
            scope={scope}
            controlId={subscriberControlId}
            providerName={providerName}
            value={subscriberID}
            error={subscriberError}
            onChange={onSubscriberChange}
          />
        )}
        <NumberField
          id={numberId}
          value={number}
          showError={numberTouched}
          serviceError={serviceError('remoteNumber', 'this number')}
          onChange={onNumberChange}
          onBlur={onNumberBlur}
        />
        <Button id={submitId} type="submit" variant="primary" className="w-full" disabled={pending}>
          {pending ? 'Placing call…' : 'Place call'}
        </Button>
      </form>
      {error ? (
        <PartBoundary what="The call's problem">
          <Suspense fallback={null}>
            <CallProblem error={error} context={{ providerName, callerName }} otherFieldErrors={otherFieldErrors} />
          </Suspense>
        </PartBoundary>
      ) : null}
      {placed ? (
        // One boundary per call placed: a failure shown for one call does not hide the next one's progress.
        <PartBoundary key={placed.idempotencyKey} what="The call's progress">
          <Suspense fallback={null}>
            <CallProgressView placed={placed} calls={calls} />
          </Suspense>
        </PartBoundary>
      ) : null}
    </div>
  );
};
