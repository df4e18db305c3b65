// Package scripts holds no code: its tests check the shell scripts beside
// them.
package scripts
