// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

interface IV3PoolForMint {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data) external returns (uint256, uint256);
}

/// @title V3LiquidityHelper
/// @notice Devnet only: adds Uniswap V3 positions without the periphery. Pools call back
///         uniswapV3MintCallback and are paid from this contract's own balance (the deployer
///         funds it first); positions belong to the owner.
contract V3LiquidityHelper {
    using SafeERC20 for IERC20;

    address public immutable owner;
    address private _pool;

    error NotOwner();
    error UnexpectedCallback();

    constructor(address owner_) {
        owner = owner_;
    }

    function mint(address pool, int24 tickLower, int24 tickUpper, uint128 liquidity) external {
        if (msg.sender != owner) revert NotOwner();
        _pool = pool;
        IV3PoolForMint(pool).mint(owner, tickLower, tickUpper, liquidity, "");
        _pool = address(0);
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        if (msg.sender != _pool) revert UnexpectedCallback();
        if (amount0Owed > 0) IERC20(IV3PoolForMint(msg.sender).token0()).safeTransfer(msg.sender, amount0Owed);
        if (amount1Owed > 0) IERC20(IV3PoolForMint(msg.sender).token1()).safeTransfer(msg.sender, amount1Owed);
    }
}
