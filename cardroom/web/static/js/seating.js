// Where each seat sits around the oval, pure: the viewer at the bottom centre and
// the others clockwise, as the seat numbers go.

/**
 * Map seat number (1..seatCount) -> {x, y} in percent of the table box, on an
 * ellipse of radii rx, ry (percent) around the centre. `bottomSeat` takes the
 * bottom place: the viewer's seat, or seat 1 for a spectator.
 *
 * `aspect` (the box's height over its width), when given, spaces the seats evenly
 * along the ellipse as drawn: equal angles would crowd them where the oval curves
 * tightly (the ends of a wide table, the top and bottom of an upright one).
 */
export function seatPositions(seatCount, bottomSeat = 1, { rx = 42, ry = 40, aspect = 0 } = {}) {
  const angles = aspect > 0 ? evenAngles(seatCount, rx, ry * aspect) : null;
  const out = {};
  for (let seat = 1; seat <= seatCount; seat += 1) {
    const k = (((seat - bottomSeat) % seatCount) + seatCount) % seatCount;
    // Screen angles grow clockwise (y points down): 90° is the bottom, 180° the left.
    const angle = angles ? angles[k] : Math.PI / 2 + (2 * Math.PI * k) / seatCount;
    out[seat] = {
      x: round(50 + rx * Math.cos(angle)),
      y: round(50 + ry * Math.sin(angle)),
    };
  }
  return out;
}

/** `count` angles from the bottom, clockwise, equally far apart along the ellipse. */
function evenAngles(count, rx, ry) {
  const steps = 720;
  const lengths = [0];
  let previous = { x: 0, y: ry };
  for (let i = 1; i <= steps; i += 1) {
    const angle = Math.PI / 2 + (2 * Math.PI * i) / steps;
    const point = { x: rx * Math.cos(angle), y: ry * Math.sin(angle) };
    lengths.push(lengths[i - 1] + Math.hypot(point.x - previous.x, point.y - previous.y));
    previous = point;
  }
  const total = lengths[steps];
  const out = [];
  let i = 0;
  for (let k = 0; k < count; k += 1) {
    const wanted = (total * k) / count;
    while (lengths[i + 1] < wanted) i += 1;
    const part = lengths[i + 1] > lengths[i] ? (wanted - lengths[i]) / (lengths[i + 1] - lengths[i]) : 0;
    out.push(Math.PI / 2 + (2 * Math.PI * (i + part)) / steps);
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
