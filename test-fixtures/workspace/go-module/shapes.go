// Package geometry: Square is defined here and used in report.go.
package geometry

// Square is a square of a given side.
type Square struct {
	Side float64
}

// Perimeter is the square's perimeter.
func (s Square) Perimeter() float64 {
	return 4 * s.Side
}

// PerimeterOf returns the perimeter of a shape.
func PerimeterOf(shape Square) float64 {
	return shape.Perimeter()
}
