/** Buckets as a step chart draws them: each at its start, holding its values until the next, the last one held to its own end. */

/** A bucket's values at a time, and the bucket itself for the readout. */
export type BucketPoint<B> = B & { at: number; bucket: B };

export const bucketSteps = <B extends { start: string }>(buckets: readonly B[], bucketSeconds: number): BucketPoint<B>[] => {
  const points = buckets.map((bucket) => ({ ...bucket, at: Date.parse(bucket.start), bucket }));
  const last = points.at(-1);
  // A step ends where the next begins: without a point at its end, the last bucket would have no width.
  if (last) points.push({ ...last, at: last.at + bucketSeconds * 1000 });
  return points;
};
