// Package emptyspan holds the one figure that the counter package's
// Counter.Floor and countertest's Bench share: how many empty spans make a
// floor. Bench's doc promises its floor is as many spans as Floor takes;
// with one constant the two cannot drift apart.
package emptyspan

// Count is how many spans with nothing between their reads, taken back to
// back, make a floor.
const Count = 10000
