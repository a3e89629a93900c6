// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title MintableERC20
/// @notice Test token for the LOCAL devnet only: anyone may mint, so it must never be deployed
///         anywhere real. Decimals are configurable so it can stand in for USDC (6), WBTC (8), etc.
contract MintableERC20 is ERC20 {
    uint8 private immutable _decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_) {
        _decimals = decimals_;
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    /// @notice Unrestricted on purpose: tests and the local stack mint balances at will.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
