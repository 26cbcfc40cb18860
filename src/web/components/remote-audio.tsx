/**
 * Plays a call's remote audio: one <audio autoplay> per track, since a media element plays only
 * the first audio track of a stream in some browsers (a listened call has one per party), on the
 * chosen speaker where the browser lets a page choose one (`setSinkId`).
 */
import { useEffect, useRef } from 'react';

const TrackAudio = ({ track, speaker }: { track: MediaStreamTrack; speaker: string | undefined }) => {
  const element = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    const audio = element.current;
    if (!audio) return undefined;
    audio.srcObject = new MediaStream([track]);
    return () => {
      audio.srcObject = null;
    };
  }, [track]);
  useEffect(() => {
    const audio = element.current;
    // The default output where the browser cannot choose, or the chosen speaker has gone.
    if (audio && speaker !== undefined && typeof audio.setSinkId === 'function') audio.setSinkId(speaker).catch(() => undefined);
  }, [speaker]);
  // A live call has no captions to give.
  // eslint-disable-next-line jsx-a11y/media-has-caption
  return <audio ref={element} autoPlay />;
};

export const RemoteAudio = ({ tracks, speaker }: { tracks: readonly MediaStreamTrack[]; speaker?: string }) => (
  <>
    {tracks.map((track) => (
      <TrackAudio key={track.id} track={track} speaker={speaker} />
    ))}
  </>
);
