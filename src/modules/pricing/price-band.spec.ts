import { PriceAnchors } from './price-band';

describe('PriceAnchors (the sanity band)', () => {
  const anchors = new PriceAnchors(20, 900_000);

  it('takes any reading while a chain has no anchor', () => {
    expect(anchors.check(1, 123_456, 0)).toBeNull();
  });

  it('refuses a reading more than the band away from a recent anchor, either way', () => {
    anchors.set(1, 3000, 0);
    expect(anchors.check(1, 3600, 1000)).toBeNull();
    expect(anchors.check(1, 2400, 1000)).toBeNull();
    expect(anchors.check(1, 3601, 1000)).toMatch(/20\.0% away from the last good price 3000 \(band 20%\)/);
    expect(anchors.check(1, 2399, 1000)).not.toBeNull();
    // A pool moved to make the $500 limit buy $2,000 of native currency: 4x the price.
    expect(anchors.check(1, 12_000, 1000)).not.toBeNull();
  });

  it('lets the market move for real: an anchor older than the window no longer binds', () => {
    anchors.set(2, 3000, 0);
    expect(anchors.check(2, 4500, 900_000)).not.toBeNull();
    expect(anchors.check(2, 4500, 900_001)).toBeNull();
  });
});
