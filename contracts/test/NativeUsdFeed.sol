// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

import "@chainlink/contracts/src/v0.8/tests/MockV3Aggregator.sol";

/// Chainlink's own MockV3Aggregator (AggregatorV3Interface, `updateAnswer(int256)`), compiled
/// from our sources so the devnet's artifact set holds it: each local chain is priced from one.
contract NativeUsdFeed is MockV3Aggregator {
  constructor(uint8 decimals_, int256 initialAnswer) MockV3Aggregator(decimals_, initialAnswer) {}
}
