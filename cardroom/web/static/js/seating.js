// Where each seat sits around the oval, pure: the viewer at the bottom centre and
// the others clockwise, as the seat numbers go.

/**
 * Map seat number (1..seatCount) -> {x, y} in percent of the table box, on an
 * ellipse of radii rx, ry (percent) around the centre. `bottomSeat` takes the
 * bottom place: the viewer's seat, or seat 1 for a spectator.
 */
export function seatPositions(seatCount, bottomSeat = 1, { rx = 42, ry = 40 } = {}) {
  const out = {};
  for (let seat = 1; seat <= seatCount; seat += 1) {
    const k = (((seat - bottomSeat) % seatCount) + seatCount) % seatCount;
    // Screen angles grow clockwise (y points down): 90° is the bottom, 180° the left.
    const angle = Math.PI / 2 + (2 * Math.PI * k) / seatCount;
    out[seat] = {
      x: round(50 + rx * Math.cos(angle)),
      y: round(50 + ry * Math.sin(angle)),
    };
  }
  return out;
}

/** The point a fraction of the way from a seat towards the centre (for bets). */
export function towardsCentre(position, fraction) {
  return {
    x: round(position.x + (50 - position.x) * fraction),
    y: round(position.y + (50 - position.y) * fraction),
  };
}

function round(n) {
  return Math.round(n * 100) / 100;
}
