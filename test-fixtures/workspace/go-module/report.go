package geometry

import "fmt"

// Describe names a square and its perimeter.
func Describe(side float64) string {
	sq := Square{Side: side}
	return fmt.Sprintf("square %v: %v", sq.Side, PerimeterOf(sq))
}
