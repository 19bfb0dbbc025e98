#pragma once
// The analytical Markov model of TCP starvation in a two-hop chain, paper 000 Sec. 5.
//
// Chain A -> B -> GW. Flow a: A -> GW (two hops), flow b: B -> GW (one hop), each a
// fixed TCP window (W_a, W_b packets). A and GW are hidden from each other; B hears
// both and never collides (Sec. 5.2). Six queues (Fig. 25): Q1 data at A, Q2 a's data
// at B, Q3 b's data at B, Q4 b's TCP ACKs at GW, Q5 a's TCP ACKs at GW, Q6 a's TCP
// ACKs at B. The chain is embedded at mini-slot boundaries where a new exchange may
// start; its state is S = (Q1, Q2, Q3, Qg, CW_a, CW_g), Qg = Q4 + Q5, the CWs being
// backoff stages 0..RL-1; Q4, Q5, Q6 follow from Eq. (1).
//
// docs/model.md has the transition rules (Table 1 generalised to every state), the
// throughput formula (Eq. 4 corrected to packets/s) and every modelling choice.

#include <array>
#include <cstdint>

namespace wmnsim::control {

struct StarvationModelParams {
  // Minimum contention windows (window sizes, powers of two). B never doubles its.
  int cw_min_a = 32;
  int cw_min_b = 32;
  int cw_min_g = 32;
  int cw_max = 1024;   // Table 3; caps 2^stage CWmin of A and GW
  int window_a = 3;    // W_a: fixed TCP window of flow A -> GW, packets
  int window_b = 3;    // W_b: fixed TCP window of flow B -> GW
  int retry_limit = 7; // RL: stages 0..RL-1; a collision at RL-1 returns to stage 0
  bool rts_cts = false;
  int payload_bytes = 1460;  // TCP payload of a data packet; IP packet = payload + 40
  // PHY (Table 3): 802.11b, long preamble (PLCP at 1 Mbit/s, 192 us), slot 20 us,
  // SIFS 10 us, DIFS 50 us, EIFS 364 us. Rates must be 802.11b rates.
  double data_rate_bps = 11e6;   // DATA frames
  double basic_rate_bps = 2e6;   // RTS, CTS, MAC ACK
  bool short_preamble = false;
  // Gauss-Seidel on Pi P = Pi: stop when the L1 residual |Pi P - Pi| is below this.
  double tolerance = 1e-12;
  int max_iterations = 200000;
};

// Channel states of Sec. 5.2 / Fig. 26: transmissions on links 1..6, collision, idle.
enum ChannelState { kLink1, kLink2, kLink3, kLink4, kLink5, kLink6, kCollision, kIdle, kChannelStates };

struct StarvationModelResult {
  // State space: feasible states (all Q_i >= 0), the ones reachable from the start
  // (the chain is solved on these; they form one closed class), and Eq. (2)'s H.
  std::int64_t feasible_states = 0;
  std::int64_t reachable_states = 0;
  std::int64_t bound_h = 0;
  double max_row_sum_error = 0;  // max_i |sum_j M_ij - 1| of the transition matrix M
  int iterations = 0;               // Gauss-Seidel sweeps
  double residual = 0;  // |Pi P - Pi|_1 at the end
  // f of Sec. 5.3: first-packet lengths in mini-slots (RTS, or the DATA frame of A
  // and the TCP-ACK frame of GW with RTS/CTS off).
  int first_packet_slots_a = 0;
  int first_packet_slots_g = 0;
  std::array<double, kChannelStates> p{};           // Eq. (3), indexed by ChannelState
  std::array<double, kChannelStates> duration_s{};  // T_i; T_c is the mean over collision kinds
  double mean_state_duration_s = 0;                 // Delta = sum_k p_k T_k
  double lambda_a_pps = 0;  // p_1 / Delta: flow A's packets per second
  double lambda_b_pps = 0;  // p_3 / Delta
  double lambda_a_bps = 0;  // times payload bits
  double lambda_b_bps = 0;
  double share_a = 0;       // lambda_a / (lambda_a + lambda_b)
  double jain_index = 0;    // of (lambda_a, lambda_b)
  // Fig. 28, under the stationary distribution of the embedded chain.
  double p_q1_empty = 0;
  double p_qg_empty = 0;
  double p_q1_and_qg_empty = 0;
};

// Throws std::invalid_argument for bad parameters (the message names the parameter)
// and std::runtime_error when the solver does not converge in max_iterations.
StarvationModelResult solve_starvation_model(const StarvationModelParams& params);

// The most states solve_starvation_model accepts (memory: about 100 bytes a state).
inline constexpr std::int64_t kMaxStarvationStates = 2'000'000;

}  // namespace wmnsim::control
